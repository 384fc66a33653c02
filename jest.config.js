/** Jest runs the TypeScript sources as ESM through ts-jest (see MEASUREMENTS.md, "Toolchain"). */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true, diagnostics: false }],
  },
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  testTimeout: 60000,
  maxWorkers: 2,
};
