"""Writes of the evidence app: upload and ingestion (``ingest``), whole-case
erasure (``erasure``)."""
