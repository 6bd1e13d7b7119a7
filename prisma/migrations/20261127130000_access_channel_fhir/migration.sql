-- The HL7 FHIR CGM summary export is its own channel in the access log.
ALTER TYPE "AccessChannel" ADD VALUE 'fhir';
