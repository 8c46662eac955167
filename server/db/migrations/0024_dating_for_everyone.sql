-- Dating for everyone (decisions 250-252, owned by dating): who a member is, who they want to
-- meet, whether their gender shows on their profile, and whether a same-evening date is fine.
-- Members who joined before have no gender (met only by those who want to meet everyone, until
-- they say) and want to meet everyone.
ALTER TABLE dating_users
  ADD COLUMN gender text CHECK (gender IN ('WOMAN', 'MAN', 'NON_BINARY', 'SELF_DESCRIBED')),
  ADD COLUMN gender_self_described text CHECK (length(gender_self_described) <= 40),
  ADD COLUMN wants_to_meet text NOT NULL DEFAULT 'EVERYONE' CHECK (wants_to_meet IN ('WOMEN', 'MEN', 'EVERYONE')),
  ADD COLUMN show_gender boolean NOT NULL DEFAULT true,
  ADD COLUMN tonight_is_fine boolean NOT NULL DEFAULT false;
