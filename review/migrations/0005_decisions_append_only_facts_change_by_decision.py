"""Decisions are append-only and a fact changes only together with a new
decision about it — enforced by the database, not by the services.

- ``review_decision``: UPDATE and DELETE are refused. Two exceptions: the
  whole-case erasure of the decision's case (``belegt_erasure_active``, granted
  only by ``belegt_case_erase``), and the decider's account being deleted
  (``actor_id`` set to NULL, nothing else changed; ``actor_label`` keeps the
  name).
- ``review_fact``: a fact's case, type, value, first proposal and creation
  time never change (a different value is a different fact); DELETE only in
  the erasure; ``last_decision`` only moves forward, to a decision about this
  fact.
- At commit (deferred constraint triggers), a fact that was inserted, or whose
  state (status, dispute reason, who evidenced, confirmed or disputed it)
  changed, must point at a decision newer than before, about this fact, that
  is its newest decision and whose ``status_after`` is the fact's status."""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION review_decision_append_only() RETURNS trigger AS $$
BEGIN
    IF belegt_erasure_active(OLD.case_id) THEN
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.actor_id IS NOT NULL AND NEW.actor_id IS NULL
       AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
        RETURN NEW;  -- the decider's account was deleted; the label stays
    END IF;
    RAISE EXCEPTION 'decisions are append-only (% of decision % refused)',
        TG_OP, OLD.id
        USING ERRCODE = 'integrity_constraint_violation',
              HINT = 'A new decision supersedes an earlier one.';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER review_decision_append_only
    BEFORE UPDATE OR DELETE ON review_decision
    FOR EACH ROW EXECUTE FUNCTION review_decision_append_only();

CREATE OR REPLACE FUNCTION review_fact_guard() RETURNS trigger AS $$
BEGIN
    IF belegt_erasure_active(OLD.case_id) THEN
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        RETURN NEW;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'fact % can only be removed with its case (erasure)', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.case_id <> OLD.case_id OR NEW.fact_type <> OLD.fact_type
       OR NEW.value <> OLD.value OR NEW.created_at <> OLD.created_at
       OR (NEW.proposal_id IS NOT NULL
           AND NEW.proposal_id IS DISTINCT FROM OLD.proposal_id) THEN
        RAISE EXCEPTION 'fact %: case, type, value and origin never change', OLD.id
            USING ERRCODE = 'integrity_constraint_violation',
                  HINT = 'A different value is a different fact.';
    END IF;
    IF NEW.last_decision_id IS DISTINCT FROM OLD.last_decision_id
       AND (NEW.last_decision_id IS NULL
            OR NEW.last_decision_id <= coalesce(OLD.last_decision_id, 0)
            OR NOT EXISTS (SELECT 1 FROM review_decision d
                            WHERE d.id = NEW.last_decision_id
                              AND d.fact_id = NEW.id)) THEN
        RAISE EXCEPTION 'fact % can only move on to a newer decision about it',
            OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER review_fact_guard
    BEFORE UPDATE OR DELETE ON review_fact
    FOR EACH ROW EXECUTE FUNCTION review_fact_guard();

CREATE OR REPLACE FUNCTION review_fact_needs_decision() RETURNS trigger AS $$
DECLARE
    cur review_fact%ROWTYPE;
    latest review_decision%ROWTYPE;
    before_id bigint := 0;
BEGIN
    SELECT * INTO cur FROM review_fact WHERE id = NEW.id;
    IF NOT FOUND OR belegt_erasure_active(cur.case_id) THEN
        RETURN NULL;  -- erased in this transaction
    END IF;
    IF TG_OP = 'UPDATE' THEN
        before_id := coalesce(OLD.last_decision_id, 0);
    END IF;
    SELECT * INTO latest FROM review_decision d
     WHERE d.fact_id = cur.id ORDER BY d.id DESC LIMIT 1;
    IF cur.last_decision_id IS NULL OR cur.last_decision_id <= before_id
       OR latest.id IS DISTINCT FROM cur.last_decision_id
       OR latest.status_after IS DISTINCT FROM cur.status THEN
        RAISE EXCEPTION 'fact % changed without a new decision that records it',
            cur.id
            USING ERRCODE = 'integrity_constraint_violation',
                  HINT = 'Facts change only through a review decision.';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER review_fact_inserted_needs_decision
    AFTER INSERT ON review_fact
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION review_fact_needs_decision();

CREATE CONSTRAINT TRIGGER review_fact_changed_needs_decision
    AFTER UPDATE ON review_fact
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
          OR OLD.dispute_reason IS DISTINCT FROM NEW.dispute_reason
          OR OLD.last_decision_id IS DISTINCT FROM NEW.last_decision_id
          OR (NEW.evidenced_by_id IS NOT NULL
              AND NEW.evidenced_by_id IS DISTINCT FROM OLD.evidenced_by_id)
          OR (NEW.confirmed_by_id IS NOT NULL
              AND NEW.confirmed_by_id IS DISTINCT FROM OLD.confirmed_by_id)
          OR (NEW.disputed_by_id IS NOT NULL
              AND NEW.disputed_by_id IS DISTINCT FROM OLD.disputed_by_id))
    EXECUTE FUNCTION review_fact_needs_decision();
"""

REVERSE = r"""
DROP TRIGGER IF EXISTS review_fact_changed_needs_decision ON review_fact;
DROP TRIGGER IF EXISTS review_fact_inserted_needs_decision ON review_fact;
DROP FUNCTION IF EXISTS review_fact_needs_decision();
DROP TRIGGER IF EXISTS review_fact_guard ON review_fact;
DROP FUNCTION IF EXISTS review_fact_guard();
DROP TRIGGER IF EXISTS review_decision_append_only ON review_decision;
DROP FUNCTION IF EXISTS review_decision_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("evidence", "0004_case_erasure_through_definer_function"),
        ("review", "0004_fact_last_decision"),
    ]
    operations = [migrations.RunSQL(FORWARD, REVERSE)]
