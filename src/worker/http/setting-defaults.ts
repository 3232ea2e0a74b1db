import { configSchema } from "../config";

/**
 * The settings as a deployment that sets none of them has them. The document describes limits
 * with these values, each next to the setting that changes it.
 */
export const settingDefaults = configSchema.parse({});
