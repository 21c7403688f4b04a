"""A layered ("Sugiyama") layout of a graph, so that a picture needs no Graphviz.

Four steps, each simple on its own:

1. **Layers by depth from the output.** The output sits in layer 0 at the bottom; a
   vertex sits one layer above the highest of the vertices its edges lead to (the
   longest path to the output), so every edge points down. A tensor joined only by
   undirected edges (what a node saved) sits one layer below its node.
2. **Dummy points.** An edge that spans several layers gets one point per layer it
   crosses; the point takes a slot in that layer like a narrow vertex, so no box is
   ever drawn across an edge.
3. **Order within layers.** Sweeps up and down the layers sort each layer by the mean
   position of its neighbours in the layer before (the barycentre heuristic); the order
   with the fewest crossings wins.
4. **x coordinates.** Each vertex wants to sit at the mean x of its neighbours; with the
   order fixed and a minimum gap between neighbours, the positions closest to those
   wishes (least squares) come from one isotonic regression per layer.

Edges run between layers as curves and through layers as vertical lines in their own
slots, so they never overlap a box. Cost: about O(layers x width^2) per sweep, fine
for a few hundred nodes.

    >>> pos = layout({"a": (60, 20), "b": (60, 20)}, [("a", "b", True)])
    >>> pos.boxes["a"][1] < pos.boxes["b"][1]      # the edge points down
    True
"""
LAYER_GAP = 36.0  # vertical space between two layers, where edges curve
NODE_GAP = 14.0   # horizontal space between two boxes of a layer
DUMMY_WIDTH = 6.0
MARGIN = 8.0
SWEEPS = 8


class Layout:
    """``boxes``: vertex -> (x, y, width, height), (x, y) the top left corner;
    ``paths``: one list of (x, y) points per edge, in the edges' order, from tail to
    head (consecutive points in different layers are joined by a curve, points in one
    layer by a straight line); ``width``, ``height``: the picture's size."""

    def __init__(self, boxes, paths, width, height):
        self.boxes, self.paths, self.width, self.height = boxes, paths, width, height


def _layers(vertices, edges):
    """Layer of each vertex: longest path to a sink along directed edges (step 1)."""
    down = {v: [] for v in vertices}
    indegree = {v: 0 for v in vertices}
    for tail, head, directed in edges:
        if directed and tail != head:
            down[tail].append(head)
            indegree[head] += 1
    # reverse topological order: a vertex after everything it points to
    order, ready, left = [], [v for v in vertices if indegree[v] == 0], dict(indegree)
    while ready:
        v = ready.pop()
        order.append(v)
        for h in down[v]:
            left[h] -= 1
            if left[h] == 0:
                ready.append(h)
    layer = {}
    for v in reversed(order):
        layer[v] = max((layer[h] + 1 for h in down[v]), default=0)
    for v in vertices:  # a cycle (never in a backward graph): put what is left at the bottom
        layer.setdefault(v, 0)
    has_directed = {t for t, _, d in edges if d} | {h for _, h, d in edges if d}
    saved = {}
    for tail, head, directed in edges:  # a saved tensor: one layer below its (lowest) node
        if not directed and head not in has_directed:
            saved[head] = min(saved.get(head, layer[tail]), max(layer[tail] - 1, 0))
    layer.update(saved)
    return layer


def _with_dummies(vertices, edges, layer):
    """Rows of vertex keys per layer (top first) and each edge's chain of keys."""
    rows = {}
    for v in vertices:
        rows.setdefault(layer[v], []).append(v)
    chains = []
    for i, (tail, head, _) in enumerate(edges):
        chain = [tail]
        step = -1 if layer[tail] > layer[head] else 1
        for k, r in enumerate(range(layer[tail] + step, layer[head], step)):
            dummy = ("dummy", i, k)
            layer[dummy] = r
            rows.setdefault(r, []).append(dummy)
            chain.append(dummy)
        chain.append(head)
        chains.append(chain)
    top = max(rows) if rows else 0
    return [rows.get(r, []) for r in range(top, -1, -1)], chains


def _neighbours(chains):
    up, down = {}, {}
    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    return up, down


def _crossings(rows, down):
    total = 0
    for upper, lower in zip(rows, rows[1:]):
        where = {v: i for i, v in enumerate(lower)}
        pairs = [(i, where[w]) for i, v in enumerate(upper) for w in down.get(v, ()) if w in where]
        for a in range(len(pairs)):
            for b in range(a + 1, len(pairs)):
                if (pairs[a][0] - pairs[b][0]) * (pairs[a][1] - pairs[b][1]) < 0:
                    total += 1
    return total


def _order(rows, up, down):
    """Step 3: barycentre sweeps; returns the rows with the fewest crossings seen."""
    best, best_count = [list(r) for r in rows], _crossings(rows, down)
    rows = [list(r) for r in rows]
    for sweep in range(SWEEPS):
        downward = sweep % 2 == 0
        indices = range(1, len(rows)) if downward else range(len(rows) - 2, -1, -1)
        for i in indices:
            fixed = rows[i - 1] if downward else rows[i + 1]
            where = {v: k for k, v in enumerate(fixed)}
            links = up if downward else down
            current = {v: k for k, v in enumerate(rows[i])}

            def centre(v):
                ks = [where[n] for n in links.get(v, ()) if n in where]
                return sum(ks) / len(ks) if ks else current[v]
            rows[i].sort(key=lambda v: (centre(v), current[v]))
        count = _crossings(rows, down)
        if count < best_count:
            best, best_count = [list(r) for r in rows], count
    return best


def _isotonic(targets, weights):
    """Non-decreasing values closest (weighted least squares) to ``targets``: pool
    adjacent violators."""
    blocks = []  # [mean, weight, count]
    for t, w in zip(targets, weights):
        blocks.append([t, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    values = []
    for mean, _, count in blocks:
        values.extend([mean] * count)
    return values


def _place_row(row, wanted, width):
    """x centres for one row in its order, a gap apart, closest to ``wanted``."""
    offsets, acc = [], 0.0
    for k, v in enumerate(row):
        if k:
            acc += (width[row[k - 1]] + width[v]) / 2 + NODE_GAP
        offsets.append(acc)
    fitted = _isotonic([wanted[v] - o for v, o in zip(row, offsets)], [1.0] * len(row))
    return {v: f + o for v, f, o in zip(row, fitted, offsets)}


def _x_positions(rows, up, down, width):
    """Step 4: start packed and centred, then pull each vertex towards its neighbours."""
    x = {}
    for row in rows:
        x.update(_place_row(row, {v: 0.0 for v in row}, width))
        shift = -(x[row[0]] + x[row[-1]]) / 2 if row else 0.0
        for v in row:
            x[v] += shift
    for sweep in range(2 * SWEEPS):
        downward = sweep % 2 == 0
        order = rows if downward else rows[::-1]
        links = up if downward else down
        for row in order:
            wanted = {}
            for v in row:
                ns = [x[n] for n in links.get(v, ())] or [x[n] for n in (down if downward else up).get(v, ())]
                wanted[v] = sum(ns) / len(ns) if ns else x[v]
            x.update(_place_row(row, wanted, width))
    return x


def layout(sizes, edges):
    """Positions for a graph: ``sizes`` maps each vertex to (width, height), ``edges`` is
    a list of (tail, head, directed). See the module docstring."""
    vertices = list(sizes)
    layer = _layers(vertices, edges)
    rows, chains = _with_dummies(vertices, edges, layer)
    up, down = _neighbours(chains)
    rows = _order(rows, up, down)
    width = {v: sizes[v][0] if v in sizes else DUMMY_WIDTH for row in rows for v in row}
    x = _x_positions(rows, up, down, width)
    left = min((x[v] - width[v] / 2 for row in rows for v in row), default=0.0)
    band_top, y = {}, MARGIN
    for row in rows:
        height = max((sizes[v][1] for v in row if v in sizes), default=0.0)
        for v in row:
            band_top[v] = (y, y + height)
        y += height + LAYER_GAP
    dx = MARGIN - left
    boxes = {}
    for v in vertices:
        w, h = sizes[v]
        top, bottom = band_top[v]
        boxes[v] = (x[v] + dx - w / 2, top + (bottom - top - h) / 2, w, h)
    paths = [_path(chain, boxes, band_top, x, dx) for chain in chains]
    right = max((x[v] + dx + width[v] / 2 for row in rows for v in row), default=0.0)
    return Layout(boxes, paths, right + MARGIN, y - LAYER_GAP + MARGIN)


def _path(chain, boxes, band, x, dx):
    """Points from the tail box's edge through the dummy slots to the head box's edge."""
    tail, head = chain[0], chain[-1]
    downward = band[tail][0] <= band[head][0]
    points = []
    for k, v in enumerate(chain):
        cx = x[v] + dx
        if v in boxes:
            bx, by, w, h = boxes[v]
            near, far = (by + h, by) if downward else (by, by + h)
            edge_y = near if k == 0 else far
            band_y = band[v][1] if downward else band[v][0]
            band_far = band[v][0] if downward else band[v][1]
            if k == 0:
                points += [(cx, edge_y), (cx, band_y)]
            else:
                points += [(cx, band_far), (cx, edge_y)]
        else:
            top, bottom = band[v]
            points += [(cx, top), (cx, bottom)] if downward else [(cx, bottom), (cx, top)]
    return points
