"""The Jacobian, the Hessian and their products: three ways to the same numbers.

backward(v) gives one row combination of the Jacobian (J^T v). The transforms build the
whole matrix: jacrev with one batched backward pass, jacfwd with one batched forward pass,
and the Hessian as forward over reverse.
"""
import chainrule as torch
from chainrule.func import hessian, jacfwd, jacrev, jvp, vjp

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)


def f(x):
    return torch.stack([x[0] * x[1], x[1].sin() + x[2] ** 2, (x ** 2).sum()])


print(jacrev(f)(x))
print(torch.allclose(jacrev(f)(x), jacfwd(f)(x)))
print(torch.autograd.functional.jacobian(f, x, vectorize=True))

v = torch.tensor([1.0, 0.0, -1.0], dtype=torch.float64)
_, pullback = vjp(f, x)
print(pullback(v))                  # v^T J: what y.backward(v) puts in x.grad
print(jvp(f, (x,), (v,))[1])        # J v: one forward pass with dual numbers


def energy(x):
    return (x.sin() * x ** 2).sum()


print(hessian(energy)(x))
print(torch.autograd.functional.hvp(energy, x, v)[1])
