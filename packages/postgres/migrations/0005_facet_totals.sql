-- Facet counts over the whole master set (no q, no filter: the landing page of a facet UI),
-- precomputed by the writer's finish(). Counting them live unnests every master: about a
-- second at 1,000,000 masters, twenty times the facets goal.
-- facet is the facet counted ('year' serves both year_from and year_to); value as served.
CREATE TABLE facet_totals (
  facet text NOT NULL,
  value text NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (facet, value)
);
CREATE INDEX facet_totals_count ON facet_totals (facet, count DESC);

-- How many masters the whole-catalogue facets answer counted (the `total` they serve).
CREATE TABLE facet_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  masters   integer NOT NULL
);
