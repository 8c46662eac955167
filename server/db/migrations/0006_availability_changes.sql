-- Availability is served from memory (decision 073): every write that can change a restaurant's
-- availability tells every app instance, through NOTIFY on one channel with the restaurant's id.
-- A trigger rather than the app's own calls, so no write path (the app, a migration, an operator
-- at psql) can be forgotten. NOTIFY is transactional: it is sent at commit, never for a rollback,
-- and repeated payloads within one transaction are sent once.
CREATE FUNCTION notify_availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_restaurant uuid;
BEGIN
  IF TG_TABLE_NAME = 'restaurants' THEN
    changed_restaurant := COALESCE(NEW.id, OLD.id);
  ELSIF TG_OP = 'DELETE' THEN
    changed_restaurant := OLD.restaurant_id;
  ELSE
    changed_restaurant := NEW.restaurant_id;
  END IF;
  PERFORM pg_notify('tablefair_availability', changed_restaurant::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER slots_availability_changed AFTER INSERT OR UPDATE OR DELETE ON slots
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER reservations_availability_changed AFTER INSERT OR UPDATE OR DELETE ON reservations
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER drops_availability_changed AFTER INSERT OR UPDATE OR DELETE ON drops
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
CREATE TRIGGER restaurants_availability_changed AFTER INSERT OR UPDATE OR DELETE ON restaurants
  FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
