-- Reference data: the disease options of spec 1 section 3 (type 0 type of diabetes, 1 basic
-- disease, 2 complication). Captions are i18n keys options:names.<code>.
INSERT INTO "Option" ("type", "code", "sort") VALUES
  (0, 'type1', 0),
  (0, 'type2', 1),
  (0, 'gestational', 2),
  (0, 'lada', 3),
  (0, 'mody', 4),
  (0, 'other_type', 5),
  (1, 'hypertension', 0),
  (1, 'dyslipidemia', 1),
  (1, 'obesity', 2),
  (1, 'thyroid_disease', 3),
  (1, 'coeliac_disease', 4),
  (1, 'heart_disease', 5),
  (2, 'retinopathy', 0),
  (2, 'nephropathy', 1),
  (2, 'neuropathy', 2),
  (2, 'diabetic_foot', 3),
  (2, 'cardiovascular', 4),
  (2, 'gastroparesis', 5)
ON CONFLICT ("code") DO NOTHING;
