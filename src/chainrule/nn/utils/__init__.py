"""``chainrule.nn.utils``: gradient clipping, parameter/vector conversion, parametrizations."""
