"""factory_boy factories. Case-owned rows are created through the model, not
the services, so that tests of a service see only that service's audit events."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from cases.models import Case, Claim, Membership, Organisation, Party


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"Kanzlei {n}")
    slug = factory.Sequence(lambda n: f"kanzlei-{n}")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.test")
    password = factory.PostGenerationMethodCall("set_password", "pw-Belegt-123")

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create:
            instance.save()


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organisation = factory.SubFactory(OrganisationFactory)
    role = Membership.Role.LAWYER


class CaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Case

    organisation = factory.SubFactory(OrganisationFactory)
    reference = factory.Sequence(lambda n: f"{n} O {100 + n}/26")
    title = factory.Sequence(lambda n: f"Müller GmbH ./. Schmidt KG ({n})")
    client = "Müller GmbH"


class PartyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Party

    case = factory.SubFactory(CaseFactory)
    role = Party.Role.DEBTOR
    kind = Party.Kind.BUSINESS
    name = "Schmidt KG"
    address = "Hauptstraße 1, 10115 Berlin"


class ClaimFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Claim

    case = factory.SubFactory(CaseFactory)
    claim_type = Claim.ClaimType.VERZUGSSCHADEN
    jurisdiction = "DE"
    valid_at = dt.date(2026, 5, 1)
