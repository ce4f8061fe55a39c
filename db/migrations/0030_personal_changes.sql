-- What a signed-in page's personal parts are read from (GET /api/account/personal: the session,
-- its user, the user's follows) says when it changes, whoever writes it: a login's touch, a
-- logout, a password reset, a profile edit, a follow, an offer's deletion cascading to the
-- follows. The payload is the user's id ('*': every user, after a TRUNCATE). Where the server
-- sees every notification the moment the writing statement returns (the embedded database),
-- it keeps those parts in memory and drops a user's copy on this (docs/decisions/0041).
CREATE FUNCTION oa_personal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('oa_personal_changed', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('oa_personal_changed', OLD.id::text);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('oa_personal_changed', OLD.user_id::text);
  ELSE
    PERFORM pg_notify('oa_personal_changed', NEW.user_id::text);
  END IF;
  RETURN NULL;
END $$;

-- A new user or session is read fresh anyway; only what changes or goes is told.
CREATE TRIGGER users_personal_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION oa_personal_changed();
CREATE TRIGGER sessions_personal_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION oa_personal_changed();
CREATE TRIGGER watchlist_personal_changed AFTER INSERT OR UPDATE OR DELETE ON watchlist_items
  FOR EACH ROW EXECUTE FUNCTION oa_personal_changed();

CREATE TRIGGER users_personal_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION oa_personal_changed();
CREATE TRIGGER sessions_personal_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION oa_personal_changed();
CREATE TRIGGER watchlist_personal_truncated AFTER TRUNCATE ON watchlist_items
  FOR EACH STATEMENT EXECUTE FUNCTION oa_personal_changed();
