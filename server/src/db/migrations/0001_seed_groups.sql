-- The two groups that define roles (DESIGN §3 Roles) and the home-schooling entry (SPEC §2 Profile).
INSERT INTO "groups" ("id", "name", "system_key") VALUES
  ('00000000-0000-4000-8000-000000000001', 'teachers', 'teachers'),
  ('00000000-0000-4000-8000-000000000002', 'members', 'members');
--> statement-breakpoint
INSERT INTO "institutions" ("id", "name", "address", "confirmed") VALUES
  ('00000000-0000-4000-8000-000000000010', 'Instruction en famille', '', true);
