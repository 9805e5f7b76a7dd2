-- Every process listening on PostgreSQL learns of a new job when its transaction commits, so a job
-- queued by one process starts in another at once instead of at that one's next look at the table.
CREATE OR REPLACE FUNCTION "jobs_notify_queued"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('jobs_queued', '');
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "jobs_notify_queued" AFTER INSERT ON "jobs" FOR EACH STATEMENT EXECUTE FUNCTION "jobs_notify_queued"();
