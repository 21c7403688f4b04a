"""``torch.autograd.anomaly_mode``: anomaly detection's managers (made in ``_autograd.anomaly_mode``)."""
from .._autograd.anomaly_mode import detect_anomaly, set_detect_anomaly

__all__ = ["detect_anomaly", "set_detect_anomaly"]
