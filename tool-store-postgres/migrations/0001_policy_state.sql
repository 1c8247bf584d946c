-- tool-contract policy state, version 1: idempotency records, approval
-- grants and the append-only audit trail.
--
-- What the model sent (keys, tool names, outputs) may hold U+0000, which
-- `text` and `jsonb` cannot: an idempotency record, replayed exactly, is
-- kept as serialized JSON in `text` (where it is the escape \u0000);
-- every other column is for reading and querying, with U+0000 as U+FFFD.

CREATE TABLE tool_contract_idempotency (
    -- SHA-256 of the scope (tool, contract major, subjects, key) as JSON:
    -- fixed-size, so that no key is too long for the index.
    scope_sha256   text        PRIMARY KEY,
    tool           text        NOT NULL,
    contract_major bigint      NOT NULL,
    subjects       jsonb       NOT NULL,
    key            text        NOT NULL,
    state          text        NOT NULL CHECK (state IN ('running', 'done', 'abandoned')),
    claimed_at     timestamptz NOT NULL DEFAULT now(),
    lease_until    timestamptz NOT NULL,
    completed_at   timestamptz,
    -- The IdempotencyRecord, serialized: replayed byte for byte.
    record         text,
    CHECK ((state = 'done') = (record IS NOT NULL))
);
CREATE INDEX tool_contract_idempotency_claimed_at ON tool_contract_idempotency (claimed_at);

CREATE TABLE tool_contract_approvals (
    approval_id      text        PRIMARY KEY CHECK (octet_length(approval_id) <= 512),
    -- SHA-256 of what the grant binds (tool, version, subjects, argument hash).
    binding_sha256   text        NOT NULL,
    tool             text        NOT NULL,
    contract_version text        NOT NULL,
    subjects         jsonb       NOT NULL,
    arguments_sha256 text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    used_at          timestamptz
);
CREATE INDEX tool_contract_approvals_binding ON tool_contract_approvals (binding_sha256, created_at);

CREATE TABLE tool_contract_audit (
    id          bigserial   PRIMARY KEY,
    -- An `ended` entry of a call announced as `started` names that entry.
    started_id  bigint      UNIQUE REFERENCES tool_contract_audit (id),
    phase       text        NOT NULL CHECK (phase IN ('started', 'ended')),
    call_id     text        NOT NULL,
    tool        text        NOT NULL,
    outcome     text        NOT NULL,
    written_at  timestamptz NOT NULL DEFAULT now(),
    record      jsonb       NOT NULL,
    CHECK (phase = 'ended' OR started_id IS NULL)
);

-- Append-only, also for the table's owner: an entry is never changed or
-- removed (an end is a new entry).
CREATE FUNCTION tool_contract_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'tool_contract_audit is append-only';
END;
$$;
CREATE TRIGGER tool_contract_audit_append_only
    BEFORE UPDATE OR DELETE ON tool_contract_audit
    FOR EACH ROW EXECUTE FUNCTION tool_contract_audit_append_only();

-- One row per call: the end's outcome, or `unknown` for a call announced
-- and never ended.
CREATE VIEW tool_contract_audit_calls AS
SELECT c.id,
       c.call_id,
       c.tool,
       c.written_at,
       COALESCE(e.outcome, c.outcome) AS outcome,
       (c.phase = 'ended' OR e.id IS NOT NULL) AS ended,
       COALESCE(e.record, c.record) AS record
FROM tool_contract_audit c
LEFT JOIN tool_contract_audit e ON e.started_id = c.id
WHERE c.started_id IS NULL;
