-- The audit table is append-only also against TRUNCATE, which the row
-- triggers of version 1 do not see: a statement trigger refuses it, for the
-- table's owner too.
CREATE TRIGGER tool_contract_audit_no_truncate
    BEFORE TRUNCATE ON tool_contract_audit
    FOR EACH STATEMENT EXECUTE FUNCTION tool_contract_audit_append_only();
