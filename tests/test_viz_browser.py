"""The page ``viz.to_html`` writes, opened in a real headless Chromium.

Chromium and its driver come from Debian (``chromium``, ``chromium-driver``, installed
by ``.ci/run``), driven by Selenium from PyPI (the ``test`` extra). With ``CI`` set a
missing browser fails the test; elsewhere it skips. The screenshot is kept in pytest's
tmp dir and copied to ``$CHAINRULE_ARTIFACTS`` when that is set.
"""
import os
import pathlib
import shutil

import pytest

import chainrule
import chainrule.viz as viz
from viz_programs import mlp, seed_004_scalar

CHROMIUM = os.environ.get("CHAINRULE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHAINRULE_CHROMEDRIVER", "/usr/bin/chromedriver")


def _browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        webdriver = None
    if webdriver is None or not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI"):
            pytest.fail("the browser test needs selenium, chromium and chromium-driver in CI (see .ci/run)")
        pytest.skip("selenium or Debian's chromium/chromium-driver is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    driver = _browser()
    yield driver
    driver.quit()


def _open(browser, tmp_path, program):
    out, params, _ = program(chainrule)
    path = viz.to_html(out, tmp_path / f"{program.__name__}.html", params=params)
    browser.get(pathlib.Path(path).as_uri())
    return out, params


def _errors(browser):
    return [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]


def _save_screenshot(browser, tmp_path, name):
    shot = tmp_path / name
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000
    target = os.environ.get("CHAINRULE_ARTIFACTS")
    if target:
        os.makedirs(target, exist_ok=True)
        shutil.copy(shot, os.path.join(target, name))


def test_page_shows_every_node_and_the_gradient_on_click(browser, tmp_path):
    from selenium.webdriver.common.by import By
    out, params = _open(browser, tmp_path, seed_004_scalar)
    assert _errors(browser) == []
    graph = viz.graph.walk(out, params)
    shown = browser.find_elements(By.CSS_SELECTOR, "g.node")
    assert sorted(g.get_attribute("data-id") for g in shown) == sorted(graph.vertices)
    assert all(g.is_displayed() for g in shown)
    assert len(browser.find_elements(By.CSS_SELECTOR, "g.edge")) == len(graph.edges)
    leaf = next(v for v in graph.vertices.values() if v.name == "x")
    browser.find_element(By.ID, f"node{leaf.id}").click()
    panel = browser.find_element(By.ID, "panel")
    assert panel.find_element(By.TAG_NAME, "h2").text == "x (2, 2)"
    assert "4.5" in panel.find_element(By.CSS_SELECTOR, "pre.gradient").text
    add = next(v for v in graph.vertices.values() if v.label == "AddBackward0")
    browser.find_element(By.ID, f"node{add.id}").click()
    assert "4.5" in panel.find_element(By.CSS_SELECTOR, "pre.gradient").text
    assert "d(a + b)/da = 1" in panel.find_element(By.CSS_SELECTOR, "pre.rule").text
    assert "3." in panel.find_element(By.CSS_SELECTOR, "pre.value").text  # y = x + 2, kept by y * y
    assert _errors(browser) == []
    _save_screenshot(browser, tmp_path, "viz_seed_004.png")


def _view(browser, svg):
    return browser.execute_script("const b = arguments[0].viewBox.baseVal; return [b.x, b.y, b.width, b.height]",
                                  svg)


def test_zoom_and_pan_change_the_view(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    _open(browser, tmp_path, mlp)
    svg = browser.find_element(By.CSS_SELECTOR, "#picture svg")
    before = _view(browser, svg)
    ActionChains(browser).scroll_to_element(svg).scroll_by_amount(0, 300).perform()
    browser.execute_script("arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: 200, "
                           "clientY: 200, bubbles: true, cancelable: true}))", svg)
    zoomed = _view(browser, svg)
    assert zoomed != before
    ActionChains(browser).move_to_element(svg).click_and_hold().move_by_offset(40, 30).release().perform()
    panned = _view(browser, svg)
    assert panned != zoomed
    browser.find_element(By.ID, "reset").click()
    assert _view(browser, svg) == before
    assert _errors(browser) == []
    _save_screenshot(browser, tmp_path, "viz_mlp.png")
