/**
 * Moved to server/test/test-images.ts (decision 091: there is no portal module). Kept only until
 * e2e/dating.e2e.ts and e2e/portal.e2e.ts import from the new place; then delete this directory.
 */
export * from '#server/test/test-images.ts';
