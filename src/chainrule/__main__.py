"""``python -m chainrule``: a walk through the seed tutorials (see ``_demo.py``)."""
from ._demo import main

main()
