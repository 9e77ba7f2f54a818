// @vitest-environment node
import { readFileSync } from 'node:fs';
import { generateApiTypes, defaultOutput, jsonName } from '../../scripts/gen-api-types.mjs';

test('the committed types are what the protos generate (run `npm run gen:types` if not)', () => {
  expect(readFileSync(defaultOutput, 'utf8')).toBe(generateApiTypes());
});

test('field names follow proto3 JSON and int64 fields are strings', () => {
  expect(jsonName('micro_per_device_hour')).toBe('microPerDeviceHour');
  expect(jsonName('namespace')).toBe('namespace');
  const text = generateApiTypes();
  expect(text).toContain('  totalCostMicro?: string;');
  expect(text).toContain('  efficiency?: number;');
  expect(text).toContain('  policyVersion?: number;');
  expect(text).toContain('  computedAt?: string;');
  expect(text).toContain("export type Resolution = 'RESOLUTION_UNSPECIFIED' | 'MINUTE' | 'HOUR' | 'DAY';");
  expect(text).toContain('  recommendations?: Recommendation[];');
});

test('a map field is a JSON object of its values, not one value', () => {
  // ScenarioSide.projection_models is map<string, int64>.
  expect(generateApiTypes()).toContain('  projectionModels?: Record<string, string>;');
});
