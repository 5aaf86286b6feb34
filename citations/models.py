"""The pinned legal corpus: instruments, versions of their text, provisions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cases.models import Organisation


class Instrument(models.Model):
    """A legal act: an EU regulation (CELEX, ELI) or a German statute
    (abbreviation). Names and aliases in German and English."""

    class Kind(models.TextChoices):
        EU_REGULATION = "eu_reg", _("EU regulation")
        EU_DIRECTIVE = "eu_dir", _("EU directive")
        DE_STATUTE = "de_statute", _("German statute")

    class UnitStyle(models.TextChoices):
        ARTICLE = "article", _("articles")
        SECTION = "section", _("sections (§)")

    key = models.SlugField(_("key"), max_length=40, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    ident = models.CharField(
        _("identifier"),
        max_length=40,
        unique=True,
        help_text=_("CELEX number for EU acts, official abbreviation otherwise."),
    )
    prefix = models.CharField(_("canonical prefix"), max_length=80, unique=True)
    celex = models.CharField(_("CELEX"), max_length=20, blank=True)
    eli = models.URLField(_("ELI"), blank=True)
    abbreviation = models.CharField(_("abbreviation"), max_length=40, blank=True)
    name_de = models.CharField(_("German name"), max_length=300)
    name_en = models.CharField(_("English name"), max_length=300)
    aliases = models.JSONField(_("aliases"), default=list)
    unit_style = models.CharField(
        _("unit style"), max_length=10, choices=UnitStyle.choices
    )

    class Meta:
        ordering = ["key"]
        verbose_name = _("instrument")
        verbose_name_plural = _("instruments")

    def __str__(self) -> str:
        return self.abbreviation or self.ident


class InstrumentVersion(models.Model):
    """One pinned text of an instrument: which text (OJ original or a
    consolidation), its date, language and the SHA-256 of the source file."""

    class TextKind(models.TextChoices):
        OJ_ORIGINAL = "oj_original", _("Official Journal, original")
        CONSOLIDATED = "consolidated", _("consolidated")
        DERIVED = "derived", _("derived from the Official Journal")
        STATUTE = "statute", _("statute as published")

    instrument = models.ForeignKey(
        Instrument, on_delete=models.CASCADE, related_name="versions"
    )
    label = models.CharField(_("label"), max_length=200)
    text_kind = models.CharField(_("text"), max_length=16, choices=TextKind.choices)
    language = models.CharField(_("language"), max_length=5)
    valid_from = models.DateField(_("valid from"))
    valid_to = models.DateField(
        _("valid to"),
        null=True,
        blank=True,
        help_text=_(
            "Last day this text is valid (the day before the next pinned version "
            "in the same language starts); empty while none later is pinned."
        ),
    )
    source_path = models.CharField(_("source file"), max_length=300)
    source_format = models.CharField(_("format"), max_length=20)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    counts = models.JSONField(_("counts"), default=dict)
    pending_amendments = models.JSONField(
        _("pending amendments"),
        default=list,
        blank=True,
        help_text=_(
            "Amendments the source names as not yet worked into this text "
            "(gesetze-im-internet: 'textlich nachgewiesen, dokumentarisch noch "
            "nicht abschließend bearbeitet')."
        ),
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now=True)

    class Meta:
        ordering = ["instrument", "language", "-valid_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["instrument", "language", "valid_from"],
                name="citations_version_unique_per_date",
            )
        ]
        verbose_name = _("instrument version")
        verbose_name_plural = _("instrument versions")

    def __str__(self) -> str:
        return f"{self.instrument} {self.language} {self.valid_from}: {self.label}"


class Provision(models.Model):
    """One unit of a version's text (article, §, paragraph, subparagraph,
    sentence, point, recital, annex and its parts) with its full text.

    ``path`` is the unit's place (``art/6/para/1/subpara/1/point/f``);
    ``lookup_key`` drops the levels a citation may leave out (subparagraph,
    annex part) so that "Art. 6 Abs. 1 lit. f" finds the point."""

    version = models.ForeignKey(
        InstrumentVersion, on_delete=models.CASCADE, related_name="provisions"
    )
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, related_name="children"
    )
    path = models.CharField(_("path"), max_length=200)
    lookup_key = models.CharField(_("lookup key"), max_length=200)
    kind = models.CharField(_("kind"), max_length=16)
    label = models.CharField(_("label"), max_length=20)
    heading = models.CharField(_("heading"), max_length=500, blank=True)
    text = models.TextField(_("text"), blank=True)
    repealed = models.BooleanField(_("repealed"), default=False)
    position = models.PositiveIntegerField(_("position"))

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "path"], name="citations_provision_unique_path"
            )
        ]
        indexes = [models.Index(fields=["version", "lookup_key"])]
        verbose_name = _("provision")
        verbose_name_plural = _("provisions")

    def __str__(self) -> str:
        return self.path


class WordingConfirmation(models.Model):
    """A lawyer's decision that a provision's wording in a pinned version was
    already in force, unchanged, from ``date_from`` to ``date_to`` (dates
    before that version's valid-from, where no pinned text covers the date).

    Firm-scoped (``organisation``) and reusable by every report of the firm
    whose relevant date falls in the range. ``text_sha256`` is the SHA-256 of
    the confirmed provision's text: a re-import that changes the text makes
    the decision no longer match."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="+"
    )
    instrument = models.ForeignKey(
        Instrument, on_delete=models.CASCADE, related_name="+"
    )
    version = models.ForeignKey(
        InstrumentVersion, on_delete=models.CASCADE, related_name="+"
    )
    provision_path = models.CharField(_("provision"), max_length=200)
    text_sha256 = models.CharField(_("SHA-256 of the confirmed text"), max_length=64)
    date_from = models.DateField(_("from"))
    date_to = models.DateField(_("to"))
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        ordering = ["organisation", "provision_path", "date_from"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(date_from__lte=models.F("date_to")),
                name="citations_wording_range_ordered",
            ),
            models.UniqueConstraint(
                fields=[
                    "organisation",
                    "version",
                    "provision_path",
                    "date_from",
                    "date_to",
                ],
                name="citations_wording_unique_decision",
            ),
        ]
        indexes = [models.Index(fields=["organisation", "version", "provision_path"])]
        verbose_name = _("wording confirmation")
        verbose_name_plural = _("wording confirmations")

    def __str__(self) -> str:
        return f"{self.provision_path} {self.date_from}–{self.date_to}"
