"""Per-sample gradients of a small MLP with vmap(grad(...)), the way differential-privacy
training and influence functions need them: one gradient per example, in one batched pass.

Run it with chainrule (as written) or swap the import for PyTorch: the output is the same.
"""
import chainrule as torch
from chainrule.func import grad, vmap

torch.manual_seed(0)
params = {
    "w1": torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3),
    "b1": torch.zeros(4, dtype=torch.float64),
    "w2": torch.linspace(1, -1, 8, dtype=torch.float64).reshape(2, 4),
    "b2": torch.zeros(2, dtype=torch.float64),
}
inputs = torch.linspace(-2, 2, 15, dtype=torch.float64).reshape(5, 3)
labels = torch.tensor([0, 1, 1, 0, 1])


def loss_of_one(p, x, y):
    """The loss of ONE example: vmap adds the batch dimension."""
    hidden = (p["w1"] @ x + p["b1"]).tanh()
    logits = p["w2"] @ hidden + p["b2"]
    return torch.nn.functional.cross_entropy(logits.unsqueeze(0), y.unsqueeze(0))


per_sample = vmap(grad(loss_of_one), in_dims=(None, 0, 0))(params, inputs, labels)
for name, g in per_sample.items():
    print(name, tuple(g.shape))
print(per_sample["b2"])

# the mean of the per-sample gradients is the ordinary gradient of the mean loss
mean_loss = sum(loss_of_one(params, inputs[i], labels[i]) for i in range(5)) / 5
print(torch.allclose(grad(lambda p: sum(loss_of_one(p, inputs[i], labels[i]) for i in range(5)) / 5)(params)["w1"],
                     per_sample["w1"].mean(0)))
print(mean_loss)
