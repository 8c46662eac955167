-- The floor (decision 240): a restaurant's capacity is its tables, the combinations staff allow,
-- turn times by party size and pacing. A hold takes a table (a row in table_assignments) inside
-- the lock that protects it; covers are derived. Owned by the floor module.

CREATE TABLE floor_tables (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  section text NOT NULL CHECK (section IN ('indoor', 'terrace', 'bar', 'private')),
  min_covers integer NOT NULL CHECK (min_covers >= 1),
  max_covers integer NOT NULL CHECK (max_covers >= min_covers AND max_covers <= 40),
  online_bookable boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (restaurant_id, name)
);

-- Tables staff allow to be joined (ids of floor_tables of the same restaurant; the service checks).
CREATE TABLE table_combinations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  table_ids uuid[] NOT NULL CHECK (cardinality(table_ids) BETWEEN 2 AND 8),
  min_covers integer NOT NULL CHECK (min_covers >= 1),
  max_covers integer NOT NULL CHECK (max_covers >= min_covers AND max_covers <= 80),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX table_combinations_restaurant_idx ON table_combinations (restaurant_id);

-- One row per restaurant with a floor; its row lock is the floor's lock: every hold that takes a
-- table locks it after the diner and the slot (lock order: diner, slot, floor).
CREATE TABLE floor_settings (
  restaurant_id uuid PRIMARY KEY REFERENCES restaurants (id) ON DELETE CASCADE,
  -- Seven arrays, Monday first, of {"name","start","end"} (common/domain/floor.ts).
  shifts jsonb NOT NULL,
  interval_minutes integer NOT NULL DEFAULT 15 CHECK (interval_minutes IN (15, 30, 60)),
  -- [{"fromPartySize","minutes"}], the defaults 1: 75, 3: 105, 5: 120, 7: 150.
  turns jsonb NOT NULL,
  pacing_max_covers integer CHECK (pacing_max_covers >= 1),
  pacing_max_parties integer CHECK (pacing_max_parties >= 1),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What takes tables: a reservation's table(s) for [starts_at, ends_at). A reservation's assignment
-- counts while the reservation holds covers (reservation-sql.ts holdsCovers), so a cancel, an
-- expired hold, COMPLETED and NO_SHOW free the table with no write here. released_at ends one
-- early (a party moved elsewhere); a row without a reservation is staff's own (a walk-in, a block).
CREATE TABLE table_assignments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  restaurant_id uuid NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
  reservation_id uuid REFERENCES reservations (id) ON DELETE CASCADE,
  table_ids uuid[] NOT NULL CHECK (cardinality(table_ids) >= 1),
  combination_id uuid REFERENCES table_combinations (id) ON DELETE SET NULL,
  party_size integer NOT NULL CHECK (party_size >= 1),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
  released_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX table_assignments_reservation_key ON table_assignments (reservation_id) WHERE released_at IS NULL;
CREATE INDEX table_assignments_restaurant_idx ON table_assignments (restaurant_id, starts_at);

CREATE TRIGGER floor_tables_availability_changed AFTER INSERT OR UPDATE OR DELETE ON floor_tables
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER table_combinations_availability_changed AFTER INSERT OR UPDATE OR DELETE ON table_combinations
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER floor_settings_availability_changed AFTER INSERT OR UPDATE OR DELETE ON floor_settings
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER table_assignments_availability_changed AFTER INSERT OR UPDATE OR DELETE ON table_assignments
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();

-- Today's covers become an equivalent floor (decision 240), for every restaurant that has slots:
-- tables seating the largest slot capacity it offers (one 6-top from 16 covers, then 4-tops for
-- about half the covers, the rest as 2-tops; common/domain/floor.ts tablesForCapacity), 2-tops
-- joinable in pairs (seat 3-4), the first two 4-tops joinable (seat 5-8), default shifts and turns,
-- no pacing limit. Live bookings are then given tables, largest party first, the smallest free
-- table that fits, else a combination; a booking no table fits keeps its covers on its slot (the
-- slot's capacity still bounds every hold), so nothing booked is lost.
DO $$
DECLARE
  rest record;
  booking record;
  capacity integer;
  left_covers integer;
  fours integer;
  sizes integer[];
  size integer;
  position integer;
  twos uuid[];
  four_ids uuid[];
  made uuid;
  chosen uuid[];
  chosen_combination uuid;
  turn integer;
BEGIN
  FOR rest IN SELECT r.id, max(s.capacity) AS capacity FROM restaurants r JOIN slots s ON s.restaurant_id = r.id GROUP BY r.id LOOP
    capacity := greatest(2, rest.capacity);
    sizes := '{}';
    left_covers := capacity;
    IF left_covers >= 16 THEN
      sizes := sizes || 6;
      left_covers := left_covers - 6;
    END IF;
    fours := left_covers / 2 / 4;
    FOR position IN 1..fours LOOP
      sizes := sizes || 4;
    END LOOP;
    left_covers := left_covers - fours * 4;
    WHILE left_covers > 0 LOOP
      sizes := sizes || 2;
      left_covers := left_covers - 2;
    END LOOP;
    sizes := ARRAY(SELECT unnest(sizes) ORDER BY 1);
    twos := '{}';
    four_ids := '{}';
    position := 0;
    FOREACH size IN ARRAY sizes LOOP
      position := position + 1;
      INSERT INTO floor_tables (restaurant_id, name, section, min_covers, max_covers)
        VALUES (rest.id, 'T' || position, 'indoor', CASE size WHEN 2 THEN 1 WHEN 4 THEN 2 ELSE 4 END, size)
        RETURNING id INTO made;
      IF size = 2 THEN twos := twos || made; ELSIF size = 4 THEN four_ids := four_ids || made; END IF;
    END LOOP;
    FOR position IN 1..(cardinality(twos) / 2) LOOP
      INSERT INTO table_combinations (restaurant_id, table_ids, min_covers, max_covers)
        VALUES (rest.id, ARRAY[twos[position * 2 - 1], twos[position * 2]], 3, 4);
    END LOOP;
    IF cardinality(four_ids) >= 2 THEN
      INSERT INTO table_combinations (restaurant_id, table_ids, min_covers, max_covers) VALUES (rest.id, four_ids[1:2], 5, 8);
    END IF;
    INSERT INTO floor_settings (restaurant_id, shifts, turns) VALUES (
      rest.id,
      (SELECT jsonb_agg('[{"name":"lunch","start":"12:00","end":"15:00"},{"name":"dinner","start":"18:00","end":"22:30"}]'::jsonb) FROM generate_series(1, 7)),
      '[{"fromPartySize":1,"minutes":75},{"fromPartySize":3,"minutes":105},{"fromPartySize":5,"minutes":120},{"fromPartySize":7,"minutes":150}]'::jsonb
    );
    FOR booking IN
      SELECT id, party_size, starts_at FROM reservations
      WHERE restaurant_id = rest.id AND status IN ('HELD', 'PENDING', 'CONFIRMED', 'SEATED') AND (status <> 'HELD' OR hold_expires_at > now())
      ORDER BY starts_at, party_size DESC, created_at
    LOOP
      turn := CASE WHEN booking.party_size <= 2 THEN 75 WHEN booking.party_size <= 4 THEN 105 WHEN booking.party_size <= 6 THEN 120 ELSE 150 END;
      chosen := NULL;
      chosen_combination := NULL;
      SELECT ARRAY[t.id] INTO chosen FROM floor_tables t
        WHERE t.restaurant_id = rest.id AND booking.party_size BETWEEN t.min_covers AND t.max_covers
          AND NOT EXISTS (SELECT 1 FROM table_assignments a WHERE a.restaurant_id = rest.id AND t.id = ANY (a.table_ids)
                            AND a.starts_at < booking.starts_at + make_interval(mins => turn) AND booking.starts_at < a.ends_at)
        ORDER BY t.max_covers, t.min_covers, t.name LIMIT 1;
      IF chosen IS NULL THEN
        SELECT c.table_ids, c.id INTO chosen, chosen_combination FROM table_combinations c
          WHERE c.restaurant_id = rest.id AND booking.party_size BETWEEN c.min_covers AND c.max_covers
            AND NOT EXISTS (SELECT 1 FROM table_assignments a WHERE a.restaurant_id = rest.id AND a.table_ids && c.table_ids
                              AND a.starts_at < booking.starts_at + make_interval(mins => turn) AND booking.starts_at < a.ends_at)
          ORDER BY c.max_covers, cardinality(c.table_ids) LIMIT 1;
      END IF;
      IF chosen IS NOT NULL THEN
        INSERT INTO table_assignments (restaurant_id, reservation_id, table_ids, combination_id, party_size, starts_at, ends_at)
          VALUES (rest.id, booking.id, chosen, chosen_combination, booking.party_size, booking.starts_at, booking.starts_at + make_interval(mins => turn));
      END IF;
    END LOOP;
  END LOOP;
END
$$;
