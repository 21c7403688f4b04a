"""Each backward node's local derivative in words, for ``explain`` and the HTML page.

Keyed by PyTorch's node name. ``a`` and ``b`` are the op's inputs in order, ``g`` the
gradient that reached the node; a node not listed is described by ``rule_words``'s
fallback, which says where its rule lives.
"""
RULES = {
    "AddBackward0": "d(a + b)/da = 1 and d(a + b)/db = 1 (times alpha): the gradient passes unchanged",
    "AddBackward1": "d(a + c)/da = 1 for a number c: the gradient passes unchanged",
    "SubBackward0": "d(a - b)/da = 1 and d(a - b)/db = -1",
    "SubBackward1": "d(a - c)/da = 1 for a number c",
    "RsubBackward1": "d(c - a)/da = -1 for a number c",
    "MulBackward0": "d(a·b)/da = b and d(a·b)/db = a: each input gets g times the other",
    "DivBackward0": "d(a/b)/da = 1/b and d(a/b)/db = -a/b²",
    "NegBackward0": "d(-a)/da = -1",
    "PowBackward0": "d(aⁿ)/da = n·aⁿ⁻¹ for a number n",
    "PowBackward1": "d(aᵇ)/da = b·aᵇ⁻¹ and d(aᵇ)/db = aᵇ·ln a",
    "PowBackward2": "d(cᵇ)/db = cᵇ·ln c for a number c",
    "ExpBackward0": "d(eᵃ)/da = eᵃ, the output itself",
    "LogBackward0": "d(ln a)/da = 1/a",
    "SqrtBackward0": "d(√a)/da = 1/(2√a)",
    "SinBackward0": "d(sin a)/da = cos a",
    "CosBackward0": "d(cos a)/da = -sin a",
    "TanBackward0": "d(tan a)/da = 1 + tan² a",
    "TanhBackward0": "d(tanh a)/da = 1 - tanh² a, from the output",
    "SigmoidBackward0": "d σ(a)/da = σ(a)·(1 - σ(a)), from the output",
    "ReluBackward0": "d relu(a)/da = 1 where a > 0, else 0",
    "AbsBackward0": "d|a|/da = sign(a)",
    "MeanBackward0": "d mean(a)/d aᵢ = 1/N for each of the N entries averaged",
    "MeanBackward1": "d mean(a)/d aᵢ = 1/N for each of the N entries averaged along the dims",
    "SumBackward0": "d sum(a)/d aᵢ = 1: every entry gets g",
    "SumBackward1": "d sum(a)/d aᵢ = 1: every entry of a summed slice gets that slice's g",
    "MmBackward0": "for a @ b: the gradient for a is g @ bᵀ, for b it is aᵀ @ g",
    "MvBackward0": "for a @ v: the gradient for a is the outer product g vᵀ, for v it is aᵀ g",
    "DotBackward0": "d(a·b)/da = b and d(a·b)/db = a, times the scalar g",
    "AddmmBackward0": "for c + a @ b: c gets g (summed to its shape), a gets g @ bᵀ, b gets aᵀ @ g",
    "BmmBackward0": "for batched a @ b: a gets g @ bᵀ, b gets aᵀ @ g, batch by batch",
    "TBackward0": "a transpose moves entries: the gradient is transposed back",
    "PermuteBackward0": "a permutation moves entries: the gradient is permuted back",
    "TransposeBackward0": "a transpose moves entries: the gradient is transposed back",
    "ViewBackward0": "a view keeps the entries: the gradient takes the input's shape again",
    "ReshapeAliasBackward0": "a reshape keeps the entries: the gradient takes the input's shape again",
    "UnsqueezeBackward0": "a new dim of size 1: the gradient drops it again",
    "SqueezeBackward0": "dims of size 1 dropped: the gradient gets them back",
    "ExpandBackward0": "broadcast copies of a: the gradient sums over the copies",
    "SelectBackward0": "a[i] picks one slice: the gradient goes to that slice, zeros elsewhere",
    "SliceBackward0": "a[i:j] picks a range: the gradient goes to that range, zeros elsewhere",
    "IndexBackward0": "a[index] picks entries: each picked entry gets its g (summed when picked twice)",
    "CopySlices": ("y[i] = v wrote into y: the written entries' gradient goes to v, the other "
                   "entries' gradient to y as it was before the write"),
    "CloneBackward0": "a copy: the gradient passes unchanged",
    "MseLossBackward0": "d mean((a - b)²)/da = 2(a - b)/N, and the opposite for b",
    "NllLossBackward0": "-1/N at each sample's target class (times its weight), 0 elsewhere",
    "LogSoftmaxBackward0": "g - softmax(a)·sum(g) along the dim",
    "SoftmaxBackward0": "s·(g - sum(g·s)) along the dim, s the softmax output",
    "AccumulateGrad": "a leaf: the gradient that arrives is added into .grad",
}


def rule_words(name):
    """The rule for the node named ``name``, in words."""
    return RULES.get(name, f"{name}'s own vjp rule (see the op's defop entry in chainrule/_ops)")
