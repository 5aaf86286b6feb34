"""RDF namespaces shared by the vocabulary, the claim files and the case graph."""

from __future__ import annotations

from rdflib import Namespace

BC = Namespace("https://belegt.example/ns/core#")
BFT = Namespace("https://belegt.example/ns/facttype#")
BFE = Namespace("https://belegt.example/ns/established#")
BFL = Namespace("https://belegt.example/ns/factlink#")
BCL = Namespace("https://belegt.example/ns/claim#")
BCASE = Namespace("https://belegt.example/case/")
BFV = Namespace("https://belegt.example/ns/valuefield#")
