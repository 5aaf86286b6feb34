"""Create the demo firm with a lawyer, a reviewer and a curator. Idempotent:
log-ins are printed once, when the accounts are created, and kept in
var/demo-logins.txt (readable only by the owner) for later look-up."""

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from cases.models import Membership, Organisation
from cases.services import member_create, organisation_create

DEMO_SLUG = "kanzlei-demo"
DEMO_ACCOUNTS = (
    ("demo.lawyer", Membership.Role.LAWYER, "Lena", "Anwältin"),
    ("demo.reviewer", Membership.Role.REVIEWER, "Robert", "Prüfer"),
    ("demo.curator", Membership.Role.CURATOR, "Clara", "Kuratorin"),
)


def logins_file() -> Path:
    return Path(settings.BASE_DIR) / "var" / "demo-logins.txt"


class Command(BaseCommand):
    help = "Create the demo firm and its accounts (prints their log-ins once)."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        if Organisation.objects.filter(slug=DEMO_SLUG).exists() and all(
            users.filter(username=name).exists() for name, *_ in DEMO_ACCOUNTS
        ):
            self.stdout.write(
                f"Demo accounts exist; their log-ins are in {logins_file()}."
            )
            return
        created: list[tuple[str, str, str]] = []
        with transaction.atomic():
            organisation = Organisation.objects.filter(slug=DEMO_SLUG).first()
            if organisation is None:
                organisation = organisation_create(name="Kanzlei Demo", slug=DEMO_SLUG)
            for username, role, first, last in DEMO_ACCOUNTS:
                if users.filter(username=username).exists():
                    continue
                password = secrets.token_urlsafe(12)
                member_create(
                    organisation=organisation,
                    username=username,
                    password=password,
                    role=role,
                    first_name=first,
                    last_name=last,
                    email=f"{username}@demo.belegt.invalid",
                )
                created.append((username, password, str(Membership.Role(role).label)))
        path = logins_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"{u}\t{p}\t{r}" for u, p, r in created]
        with path.open("a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        path.chmod(0o600)
        self.stdout.write(self.style.SUCCESS("Demo accounts created (shown once):"))
        for username, password, label in created:
            self.stdout.write(
                f"  {label:<12} user: {username:<15} password: {password}"
            )
