-- Per-patient daily CGM figures for the clinic's triage list, kept by the database itself so that
-- no writer can leave them stale: a statement-level trigger on "CgmRecord" (insert, delete)
-- recounts every local day its rows touched, and a change of a patient's time zone recounts all
-- of that patient's days. A day is counted from the readings themselves, never incremented:
-- readings at the same instant are one reading (their mean), values below 1 mg/dL are left out,
-- and a slot is a 5-minute interval from local midnight with at least one reading. The bands are
-- the international consensus ones (Battelino et al., Diabetes Care 2019): below 54, below 70,
-- 70 to 180 inclusive, above 180, above 250 mg/dL.

-- CreateTable
CREATE TABLE "CgmDay" (
    "patientId" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "readings" INTEGER NOT NULL,
    "below54" INTEGER NOT NULL,
    "below70" INTEGER NOT NULL,
    "inRange" INTEGER NOT NULL,
    "above180" INTEGER NOT NULL,
    "above250" INTEGER NOT NULL,
    "sumMgdl" DOUBLE PRECISION NOT NULL,
    "slots" INTEGER NOT NULL,

    CONSTRAINT "CgmDay_pkey" PRIMARY KEY ("patientId","day")
);

-- AddForeignKey
ALTER TABLE "CgmDay" ADD CONSTRAINT "CgmDay_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The UTC instant (as the UTC wall-clock timestamp the record tables hold) of a local midnight.
CREATE FUNCTION cgm_local_midnight(day date, zone text) RETURNS timestamp
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (day::timestamp AT TIME ZONE zone) AT TIME ZONE 'UTC' $$;

-- The figures of each local day (in `zone`) of a patient's readings at instants from `since` up
-- to, not including, `until`. The triage list also counts today's readings up to now with it.
CREATE FUNCTION cgm_day_rows(pid integer, zone text, since timestamp, until timestamp)
  RETURNS TABLE (day date, readings integer, below54 integer, below70 integer, "inRange" integer,
                 above180 integer, above250 integer, "sumMgdl" double precision, slots integer)
  LANGUAGE sql STABLE
  AS $$
    SELECT g.day,
           count(*)::int,
           (count(*) FILTER (WHERE g.mgdl < 54))::int,
           (count(*) FILTER (WHERE g.mgdl < 70))::int,
           (count(*) FILTER (WHERE g.mgdl >= 70 AND g.mgdl <= 180))::int,
           (count(*) FILTER (WHERE g.mgdl > 180))::int,
           (count(*) FILTER (WHERE g.mgdl > 250))::int,
           sum(g.mgdl)::float8,
           count(DISTINCT date_bin('5 minutes', g.at, cgm_local_midnight(g.day, zone)))::int
      FROM (SELECT d."dateTime" AS at, avg(d."eventData") AS mgdl,
                   ((d."dateTime" AT TIME ZONE 'UTC') AT TIME ZONE zone)::date AS day
              FROM "CgmRecord" d
             WHERE d."patientId" = pid AND d."dateTime" >= since AND d."dateTime" < until
               AND d."eventData" >= 1
             GROUP BY d."dateTime") g
     GROUP BY g.day
  $$;

-- Recounts the local days of a patient from the one holding `first_at` to the one holding
-- `last_at`. Writers of the same patient take turns (a transaction-scoped lock): the recount
-- starts once an earlier writer has committed, so it sees that writer's readings as well.
CREATE FUNCTION cgm_days_refresh(pid integer, first_at timestamp, last_at timestamp) RETURNS void
  LANGUAGE plpgsql
  AS $$
  DECLARE
    zone text;
    first_day date;
    last_day date;
  BEGIN
    PERFORM pg_advisory_xact_lock(1128, pid);
    SELECT "timeZone" INTO zone FROM "Patient" WHERE id = pid;
    IF zone IS NULL THEN
      RETURN;
    END IF;
    first_day := ((first_at AT TIME ZONE 'UTC') AT TIME ZONE zone)::date;
    last_day := ((last_at AT TIME ZONE 'UTC') AT TIME ZONE zone)::date;
    DELETE FROM "CgmDay" WHERE "patientId" = pid AND day BETWEEN first_day AND last_day;
    INSERT INTO "CgmDay" ("patientId", day, readings, below54, below70, "inRange", above180, above250, "sumMgdl", slots)
    SELECT pid, r.*
      FROM cgm_day_rows(pid, zone, cgm_local_midnight(first_day, zone), cgm_local_midnight(last_day + 1, zone)) r;
  END
  $$;

-- The statement's changed readings, per patient in id order (so that two writers of several
-- patients take the locks in the same order).
CREATE FUNCTION cgm_days_after_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    p record;
  BEGIN
    FOR p IN SELECT "patientId" AS pid, min("dateTime") AS first_at, max("dateTime") AS last_at
               FROM changed GROUP BY "patientId" ORDER BY "patientId"
    LOOP
      PERFORM cgm_days_refresh(p.pid, p.first_at, p.last_at);
    END LOOP;
    RETURN NULL;
  END
  $$;

CREATE TRIGGER cgm_days_after_insert AFTER INSERT ON "CgmRecord"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cgm_days_after_change();
CREATE TRIGGER cgm_days_after_delete AFTER DELETE ON "CgmRecord"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cgm_days_after_change();

-- A patient whose time zone changes has other local days: all of them are counted again.
CREATE FUNCTION cgm_days_after_zone_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    bounds record;
  BEGIN
    PERFORM pg_advisory_xact_lock(1128, NEW.id);
    DELETE FROM "CgmDay" WHERE "patientId" = NEW.id;
    SELECT min("dateTime") AS first_at, max("dateTime") AS last_at INTO bounds
      FROM "CgmRecord" WHERE "patientId" = NEW.id;
    IF bounds.first_at IS NOT NULL THEN
      PERFORM cgm_days_refresh(NEW.id, bounds.first_at, bounds.last_at);
    END IF;
    RETURN NULL;
  END
  $$;

CREATE TRIGGER cgm_days_after_zone_change AFTER UPDATE OF "timeZone" ON "Patient"
  FOR EACH ROW WHEN (OLD."timeZone" IS DISTINCT FROM NEW."timeZone")
  EXECUTE FUNCTION cgm_days_after_zone_change();

-- The days of the readings already stored.
INSERT INTO "CgmDay" ("patientId", day, readings, below54, below70, "inRange", above180, above250, "sumMgdl", slots)
SELECT p.id, r.*
  FROM "Patient" p
  CROSS JOIN LATERAL cgm_day_rows(p.id, p."timeZone", '-infinity'::timestamp, 'infinity'::timestamp) r;
