"""The autograd core: graph nodes and the engine, grad modes, anomaly recording, saved-tensor
hooks, and backward/grad. Below the ops, it knows no op; the public API is ``autograd``."""
