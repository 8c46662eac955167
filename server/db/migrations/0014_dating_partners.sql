-- Restaurants that host Tablefair dates (decision 183): a profile in the dating
-- section's own vocabularies, so that a date plan can match two members to a table. A restaurant
-- that stops hosting has no row.
CREATE TABLE dating_partners (
  restaurant_id uuid PRIMARY KEY REFERENCES restaurants (id) ON DELETE CASCADE,
  budget text NOT NULL CHECK (budget IN ('INR_500_1000', 'INR_1000_2500', 'INR_2500_5000', 'INR_5000_PLUS')),
  neighbourhood text NOT NULL CHECK (neighbourhood IN ('Indiranagar', 'Koramangala', 'HSR', 'Whitefield', 'Central BLR', 'Kalyan Nagar')),
  cuisines text[] NOT NULL CHECK (cardinality(cuisines) >= 1),
  date_types text[] NOT NULL CHECK (cardinality(date_types) >= 1),
  opted_in_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
