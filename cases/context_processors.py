from typing import Any

from django.http import HttpRequest

from cases.selectors import membership_for_user


def membership(request: HttpRequest) -> dict[str, Any]:
    """The signed-in person's firm and role, for the page header."""
    return {"membership": membership_for_user(getattr(request, "user", None))}
