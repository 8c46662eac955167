// `npm run config-docs`: rewrites docs/configuration.md and .env.example from the configuration's
// schema in server/config.ts (each variable's section, default and description; decision 194).
// Run it after adding or changing a variable; server/config.test.ts fails while either is stale.
import { writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC_PATH, ENV_EXAMPLE_PATH, renderConfigurationDoc, renderEnvExample, undescribedVariables } from '#server/config-docs.ts';

const undescribed = undescribedVariables();
if (undescribed.length > 0) {
  console.error(`Give these variables a .describe() sentence in server/config.ts first: ${undescribed.join(', ')}`);
  process.exit(1);
}
writeFileSync(CONFIGURATION_DOC_PATH, renderConfigurationDoc());
writeFileSync(ENV_EXAMPLE_PATH, renderEnvExample());
console.log(`Wrote ${CONFIGURATION_DOC_PATH} and ${ENV_EXAMPLE_PATH}`);
