"""Pure citation logic: instrument registry, parser, resolver rules (no ORM)."""
