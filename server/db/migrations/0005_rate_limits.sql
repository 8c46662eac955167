-- Fixed-window request counters, for rate limits shared by every instance (RATE_LIMIT_STORE=postgres).
CREATE TABLE rate_limit_counters (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_start);
