"""The op table: one module per op family, every op one ``defop`` entry (see registry)."""
