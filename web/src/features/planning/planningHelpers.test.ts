import { policyListNames } from './policyNames';
import { lineRange, scenarioProblems } from './scenarioProblems';
import { forecastParams, planningViewFrom } from './planningView';
import { capacitySquashes } from './forecastChart';
import { forecastFor } from '../../test/fixtures';
import { formatDay, formatFit, formatPpm } from './planningFormat';

test("the policy's flavor and team names, top-level list items only", () => {
  const document = [
    'version: 1',
    'teams:',
    '  - name: training',
    '    kind: org',
    '  - name: "team-00"   # quoted, commented',
    'flavors:',
    '  - name: openb-g2',
    '    model: G2',
    '    nested:',
    '      - name: not-a-flavor',
    '  - name: openb-t4',
    'allocation:',
    '  - team: team-00',
    '    name: ignored',
  ].join('\n');
  expect(policyListNames(document, 'flavors')).toEqual(['openb-g2', 'openb-t4']);
  expect(policyListNames(document, 'teams')).toEqual(['training', 'team-00']);
  expect(policyListNames('flavors: [{name: a}]\n', 'flavors')).toEqual([]);
});

test('scenario problems are read by line and column, other text kept whole', () => {
  expect(scenarioProblems('scenario:6:5: capacity[0].pool: unknown key "pool"\nscenario:3: demand[0].team: unknown team\nrequest body: bad\n')).toEqual([
    { line: 6, column: 5, message: 'capacity[0].pool: unknown key "pool"' },
    { line: 3, column: null, message: 'demand[0].team: unknown team' },
    { line: null, column: null, message: 'request body: bad' },
  ]);
  expect(lineRange('a\nbb\nccc', 2)).toEqual([2, 4]);
  expect(lineRange('a\nbb\nccc', 3)).toEqual([5, 8]);
  expect(lineRange('a', 9)).toEqual([1, 1]);
});

test('the URL state: defaults, a bad horizon or scenario said, the forecast query', () => {
  expect(planningViewFrom(new URLSearchParams(''))).toEqual({
    flavor: null,
    team: null,
    horizon: '90d',
    capacity: null,
    scenarioId: null,
    problem: null,
  });
  expect(planningViewFrom(new URLSearchParams('capacity=show')).capacity).toBe('show');
  expect(planningViewFrom(new URLSearchParams('capacity=hide')).capacity).toBe('hide');
  expect(planningViewFrom(new URLSearchParams('capacity=log'))).toMatchObject({
    capacity: null,
    problem: expect.stringMatching(/^capacity: "log" is neither show nor hide/),
  });
  const view = planningViewFrom(new URLSearchParams('flavor=h100&team=ml&horizon=14d&scenario=4'));
  expect(view).toMatchObject({ flavor: 'h100', team: 'ml', horizon: '14d', scenarioId: '4', problem: null });
  expect(planningViewFrom(new URLSearchParams('horizon=1y')).problem).toMatch(/^horizon: "1y" is not one of/);
  expect(planningViewFrom(new URLSearchParams('scenario=x')).problem).toMatch(/^scenario: "x"/);
  expect(forecastParams('h100', null, '30d')).toEqual({ flavor: 'h100', horizon: '30d', what: 'held' });
  expect(forecastParams('h100', 'ml', '30d')).toEqual({ flavor: 'h100', horizon: '30d', what: 'held', team: 'ml' });
});

test('days and utilisation as shown', () => {
  expect(formatDay('2027-01-15T00:00:00Z')).toBe('2027-01-15');
  expect(formatDay(undefined)).toBe('not within the horizon');
  expect(formatPpm('640625')).toBe('64.1%');
  expect(formatPpm(undefined)).toBe('0.0%');
});

test("a model's fit reads as figures, a vanishing one in exponent form", () => {
  expect(formatFit([{ name: 'alpha', value: 1 }, { name: 'beta', value: 8.805e-22 }, { name: 'gamma' }, { name: 'in_sample_rmse', value: 1075.04 }])).toBe(
    'alpha 1, beta 8.81e-22, gamma 0, in_sample_rmse 1,075',
  );
});

test('a capacity more than four times the highest demand would flatten it', () => {
  const total = forecastFor('h100', null); // demand up to 38 devices, capacity 32
  expect(capacitySquashes(total)).toBe(false);
  const at = (milli: string) => total.capacityForecast?.map((p) => ({ ...p, milli }));
  expect(capacitySquashes({ ...total, capacityForecast: at('152000') })).toBe(false); // exactly 4 x 38
  expect(capacitySquashes({ ...total, capacityForecast: at('152001') })).toBe(true);
  expect(capacitySquashes(forecastFor('h100', 'ml'))).toBe(false); // no capacity at all
});
