-- hand-written:
-- The grading table reads the current answers from answers_current_idx alone only while the table's
-- pages are marked all-visible; every grade saved (grade is in the index, so no HOT update) and every
-- answer sent clears that mark on its page. At the default scale factors (20 % of the rows) a chapter of
-- 144,000 answers waits for ~29,000 changes before autovacuum marks the pages again, and meanwhile each
-- index tuple costs a heap fetch (bench/grading: the cell query ~2× slower). 2 % + 1,000 rows brings
-- vacuum after ~4,000 changes; the vacuum of an all-but-clean table is cheap.
ALTER TABLE "answers" SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0.02,
  autovacuum_vacuum_insert_threshold = 1000,
  autovacuum_analyze_scale_factor = 0.05
);
