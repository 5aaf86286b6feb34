"""Pure ontology logic: no ORM, no django.db. Takes Pydantic values and rdflib
graphs, returns frozen results."""
