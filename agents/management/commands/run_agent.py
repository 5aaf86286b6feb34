"""``python manage.py run_agent --case REF [--provider rules|openai] [--json]
[--async] [--document ID] [--firm SLUG] [--actor USERNAME]``

Runs the extraction agent on a case in this process (``--async`` hands it to
the workers) and prints its steps, proposals and rejections by code; with
``--json`` one object: the run summary and a ``proposals`` list."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import AgentRun
from agents.providers import PROVIDERS
from agents.selectors import agent_steps_for_run, proposal_summary, proposals_of_run
from agents.services import extraction_run_start
from cases.commands import case_for_command
from cases.models import Case, Membership
from evidence.models import SourceDocument


def run_summary(run: AgentRun) -> dict[str, Any]:
    return {
        "id": run.pk,
        "case": run.case.reference,
        "provider": run.provider,
        "model_id": run.model_id,
        "status": run.status,
        "reason": run.reason,
        "steps": run.steps,
        "accepted": run.accepted,
        "rejected": run.rejected,
        "proposals_created": run.proposals_created,
        "rejections_by_code": run.rejections_by_code,
        "tokens_in": run.tokens_in,
        "tokens_out": run.tokens_out,
        "cost_cents": run.cost_cents,
        "document_id": run.document_id,
    }


def _actor(case: Case, username: str | None) -> Any:
    users = get_user_model().objects
    if username:
        user = users.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        return user
    if case.created_by is not None:
        return case.created_by
    membership = (
        Membership.objects.filter(
            organisation_id=case.organisation_id,
            role__in=[Membership.Role.LAWYER, Membership.Role.ADMIN],
        )
        .select_related("user")
        .order_by("id")
        .first()
    )
    if membership is None:
        raise CommandError("The case's firm has no lawyer to act for; use --actor.")
    return membership.user


class Command(BaseCommand):
    help = "Run the extraction agent on a case (proposals go to the review queue)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--case", required=True, help="file reference")
        parser.add_argument("--firm", help="firm slug, if the reference is ambiguous")
        parser.add_argument("--provider", choices=PROVIDERS, default=None)
        parser.add_argument("--document", type=int, help="only this document (id)")
        parser.add_argument("--actor", help="username the run acts for")
        parser.add_argument("--json", action="store_true", dest="as_json")
        parser.add_argument("--async", action="store_true", dest="run_async")

    def handle(self, *args: Any, **options: Any) -> None:
        case = case_for_command(reference=options["case"], firm_slug=options["firm"])
        document = None
        if options["document"]:
            document = SourceDocument.objects.filter(
                pk=options["document"], case=case
            ).first()
            if document is None:
                raise CommandError("No such document in this case.")
        actor = _actor(case, options["actor"])
        run = extraction_run_start(
            case=case,
            document=document,
            actor=actor,
            provider=options["provider"],
            run_async=options["run_async"],
        )
        proposals = [] if options["run_async"] else proposals_of_run(run=run)
        if options["as_json"]:
            payload = {
                "run": run_summary(run),
                "proposals": [proposal_summary(p) for p in proposals],
            }
            self.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2))
            return
        if options["run_async"]:
            self.stdout.write(f"Run {run.pk} queued for the workers.")
            return
        for step in agent_steps_for_run(run=run):
            if step.kind != "tool_call":
                self.stdout.write(f"  [{step.index}] {step.kind}: {step.note}")
                continue
            code = (step.rejection or {}).get("code", "")
            self.stdout.write(
                f"  [{step.index}] {step.tool} → {step.verdict}"
                + (f" ({code})" if code else "")
            )
        self.stdout.write("")
        for p in proposals:
            s = proposal_summary(p)
            pages = ", ".join(str(n) for n in s["pages"])
            self.stdout.write(
                f"{s['fact_type']:<26} {json.dumps(s['value'], ensure_ascii=False)}"
                f"  {s['document']} p. {pages}  ({s['confidence']:.2f}, {s['status']})"
            )
            self.stdout.write(f"    „{' '.join(s['quote'].split())}“")
        self.stdout.write("")
        self.stdout.write(
            f"Run {run.pk}: {run.status} ({run.reason}); steps {run.steps}, "
            f"accepted {run.accepted}, rejected {run.rejected}, "
            f"new proposals {run.proposals_created}"
        )
        for code, count in sorted(run.rejections_by_code.items()):
            self.stdout.write(f"  rejected {code}: {count}")
