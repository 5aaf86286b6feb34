"""The offline extractor behind the ``rules`` provider (issue 16): units of
reading (``units``), documents and their kinds (``documents``), the fact rules
(``facts``, ``statements``) and the orchestration (``extractor``). Pure: no
Django, no database."""
