"""``func.functional_call``: call a module with other tensors in place of its parameters.

``functional_call(model, {"weight": w}, (x,))`` runs ``model(x)`` with ``model.weight``
temporarily replaced by ``w`` (dotted names reach submodules: ``"layer1.bias"``), then
puts the original back. That makes a module a pure function of its parameters, which is
what ``grad``, ``jacrev`` and ``vmap`` need (per-sample gradients, ensembles).

Works on any object whose parameters are attributes. ``strict`` and ``tie_weights`` use
the module's ``named_parameters``/``named_buffers`` where it has them (``nn.Module``).
"""
from .._core.tensor import Tensor


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    replacements = _merged(parameter_and_buffer_dicts)
    if tie_weights:
        replacements = _with_tied_names(module, replacements)
    if strict:
        _check_keys(module, replacements)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    originals = {}
    try:
        for name, value in replacements.items():
            owner, attr = _owner(module, name)
            originals[name] = getattr(owner, attr)
            _set(owner, attr, value)
        return module(*args, **(kwargs or {}))
    finally:
        for name, value in originals.items():
            owner, attr = _owner(module, name)
            _set(owner, attr, value)


def _merged(dicts):
    if isinstance(dicts, dict):
        return dict(dicts)
    if isinstance(dicts, (tuple, list)):
        if not all(isinstance(d, dict) for d in dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts = {}
        for d in dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                             "ambiguous")
        return {k: v for d in dicts for k, v in d.items()}
    raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                     f"{type(dicts)}")


def _named_tensors(module):
    """``name -> tensor`` over the module's parameters and buffers, tied ones under every
    name (empty for an object without ``named_parameters``)."""
    named = {}
    for method in ("named_parameters", "named_buffers"):
        fn = getattr(module, method, None)
        if fn is not None:
            named.update(fn(remove_duplicate=False))
    return named


def _with_tied_names(module, replacements):
    """A value given for one name of a tied tensor replaces it under all its names."""
    named = _named_tensors(module)
    names_of = {}
    for name, t in named.items():
        names_of.setdefault(id(t), []).append(name)
    result = dict(replacements)
    for name, value in replacements.items():
        if name not in named:
            continue
        for other in names_of[id(named[name])]:
            if other in replacements and replacements[other] is not value:
                raise ValueError(f"functional_call got multiple values for keys {sorted(names_of[id(named[name])])}, "
                                 "which are tied. Consider using tie_weights=False")
            result[other] = value
    return result


def _check_keys(module, replacements):
    expected = set(_named_tensors(module))
    unexpected = [k for k in replacements if k not in expected]
    missing = [k for k in expected if k not in replacements]
    errors = []
    if unexpected:
        errors.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        errors.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if errors:
        name = getattr(module, "_get_name", lambda: type(module).__name__)()
        raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(name, "\n\t".join(errors)))


def _owner(module, name):
    *path, attr = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, attr


def _set(owner, attr, value):
    # an nn.Module keeps parameters in its own dicts: bypass its __setattr__ checks
    for store in ("_parameters", "_buffers"):
        table = getattr(owner, store, None)
        if isinstance(table, dict) and attr in table:
            table[attr] = value
            return
    if not isinstance(value, Tensor) and isinstance(getattr(owner, attr, None), Tensor):
        raise TypeError(f"functional_call expected a Tensor for {attr!r}, got {type(value)}")
    object.__setattr__(owner, attr, value)
