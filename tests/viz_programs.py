"""The programs the viz, explain and error-location tests draw and explain: the two
tutorials this project comes from, and a small MLP. Each is ``program(L)`` for a library
``L`` (chainrule or torch) and returns (output, named leaves, gradient for backward)."""


def seed_000_scalar(L):
    """Tutorial 000: out = mean((x + 2)^2) at x = 1; x.grad = 1.5."""
    x = L.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y
    out = z.mean()
    return out, {"x": x}, None


def _seed_000_y(L):
    x1 = L.tensor(1, requires_grad=True, dtype=L.float)
    x2 = L.tensor(2, requires_grad=True, dtype=L.float)
    x3 = L.tensor(3, requires_grad=True, dtype=L.float)
    y = L.zeros(3)  # the tutorial's randn(3): every entry is overwritten
    y[0] = x1 ** 2 + 2 * x2 + x3
    y[1] = x1 + x2 ** 3 + x3 ** 2
    y[2] = 2 * x1 + x2 ** 2 + x3 ** 3
    return y, {"x1": x1, "x2": x2, "x3": x3}


def seed_000_vector(L):
    """Tutorial 000's vector function with v = (1, 1, 1): the gradient (5, 18, 34)."""
    y, leaves = _seed_000_y(L)
    return y, leaves, L.ones(3)


def seed_000_weighted(L):
    """The same with the tutorial's weights v = (3, 2, 1): (10, 34, 42)."""
    y, leaves = _seed_000_y(L)
    return y, leaves, L.tensor([3.0, 2.0, 1.0])


def seed_004_scalar(L):
    """Tutorial 004: out = mean(3 (x + 2)^2) at x = 1; d out/dx = (6x + 12)/4 = 4.5."""
    x = L.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return out, {"x": x}, None


def seed_004_vector(L):
    """Tutorial 004's y = 2x with v = (0.1, 1, 10): J^T·v = (0.2, 2, 20)."""
    x = L.ones(3, requires_grad=True)
    y = x * 2
    v = L.tensor([0.1, 1.0, 10], dtype=L.float)
    return y, {"x": x}, v


def mlp(L):
    """A small MLP's loss, its parameters named as ``named_parameters`` names them."""
    L.manual_seed(0)
    net = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 1))
    x = L.randn(5, 3)
    loss = L.nn.functional.mse_loss(net(x), L.zeros(5, 1))
    return loss, dict(net.named_parameters()), None


PROGRAMS = [seed_000_scalar, seed_000_vector, seed_000_weighted, seed_004_scalar, seed_004_vector, mlp]
