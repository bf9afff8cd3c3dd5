// Workspace packages resolve to their TypeScript sources in tests, so no build is needed first.
const conditions = ["@oar/source", "import", "module", "node", "default"];

export const sourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@oar/source"] } },
};
