-- PostgreSQL: each release's partitions of the tables that schema.sql
-- partitions by release.  sampler_add_partitions() makes those missing
-- for every release in `releases': call it after registering a release,
-- before its sites and runs arrive (rows of a release without partitions
-- are refused).  Returns how many it made.
CREATE OR REPLACE FUNCTION sampler_add_partitions() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    r integer;
    t text;
    made integer := 0;
BEGIN
    FOR r IN SELECT release FROM releases LOOP
        FOR t IN SELECT c.relname FROM pg_partitioned_table p
                 JOIN pg_class c ON c.oid = p.partrelid
                 JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = current_schema() LOOP
            IF to_regclass(format('%I', t || '_' || r)) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%s)',
                               t || '_' || r, t, r);
                made := made + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN made;
END $$;
