"""Op database entries for the nn.functional losses (_ops/losses.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.
"""
from op_db import Entry, ErrorCase, Sample  # noqa: F401  (the building blocks of the lists below)

ENTRIES = [
]

ERRORS = [
]

KNOWN_BUGS = {
}
