/** Style sheets imported for the bundler (Bun bundles them into the dashboard CSS). */
declare module "*.css";
