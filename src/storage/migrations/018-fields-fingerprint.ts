/**
 * `entry_deliveries.shape` becomes `fields_fingerprint`: what it holds, a fingerprint of the
 * collection's fields a body was rendered under (storage/entry-deliveries.ts). The triggers of
 * migrations 013 and 015 name only `entry_id`, so they keep working unchanged on both engines.
 */
export const fieldsFingerprint = () => `ALTER TABLE entry_deliveries RENAME COLUMN shape TO fields_fingerprint;`;
