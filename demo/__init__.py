"""The demo case of ``make run``: generated case-file PDFs and the
``seed_demo_case`` command that loads them. Nothing else imports this app
(an import contract in pyproject.toml says so)."""
