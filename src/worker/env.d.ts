// Secrets are not in wrangler.toml, so `wrangler types` cannot see them; they are declared here.
declare namespace Cloudflare {
  interface Env {
    ADMIN_TOKEN?: string;
    INGEST_TOKEN?: string;
    AUTH_DISABLED?: string;
    ALLOW_PRIVATE_OBSERVERS?: string;
    RELAY_TOKEN?: string;
  }
}
