import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { plannerToken, teamToken } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded } from '../../test/server';
import { lineDiff } from './lineDiff';
import { appliedByText, replacedText } from './policyVersionText';

test('the active policy, its history and the diff of the two newest versions', async () => {
  renderApp('/policy', plannerToken);
  expect(await screen.findByTestId('policy-version')).toHaveTextContent('2');
  expect(screen.getByTestId('policy-document')).toHaveTextContent('weight: 3');
  expect(await screen.findByTestId('policy-history')).toHaveTextContent('more weight to ml');
  const diff = await screen.findByTestId('policy-diff');
  expect(diff.querySelector('.removed')).toHaveTextContent('- weight: 1');
  expect(diff.querySelector('.added')).toHaveTextContent('+ weight: 3');
});

test('the history says who applied each version and what it replaced, in words', async () => {
  renderApp('/policy', plannerToken);
  const history = await screen.findByTestId('policy-history');
  const [newest, first] = within(history).getAllByRole('row').slice(1);
  expect(newest).toHaveTextContent('API token t0');
  expect(newest).toHaveTextContent('version 1');
  expect(within(newest!).getByText('API token t0')).toHaveAttribute('title', expect.stringContaining('fleetcapctl token list'));
  expect(first).toHaveTextContent('nothing (the first version)');
  expect(screen.getByTestId('policy-history-note')).toHaveTextContent(/Replaced: the version that was active/);
});

test('appliedByText names the token, recognises your own, and keeps other actors as recorded', () => {
  expect(appliedByText('token:48da707f0ea1', 't1').text).toBe('API token 48da707f0ea1');
  expect(appliedByText('token:t1', 't1').text).toBe('you (API token t1)');
  expect(appliedByText('token:t1', '').text).toBe('API token t1');
  expect(appliedByText('init', 't1').text).toBe('init');
  expect(appliedByText(undefined, 't1').text).toBe('unknown');
  expect(replacedText(0)).toBe('nothing (the first version)');
  expect(replacedText(undefined)).toBe('nothing (the first version)');
  expect(replacedText(4)).toBe('version 4');
});

test('choosing versions compares them', async () => {
  renderApp('/policy', plannerToken);
  await screen.findByTestId('policy-diff');
  await userEvent.selectOptions(screen.getByLabelText('From'), '2');
  await waitFor(() => expect(screen.getByTestId('policy-diff').querySelector('.added,.removed')).toBeNull());
  expect(recorded('/v1/policy').map((u) => u.searchParams.get('version'))).toEqual(expect.arrayContaining([null, '1', '2']));
});

test('a team token is told the policy is for planners, without a refused call', async () => {
  renderApp('/policy', teamToken);
  expect(await screen.findByText(/visible to planners and admins/)).toBeInTheDocument();
  expect(recorded('/v1/policy')).toHaveLength(0);
});

test('lineDiff keeps common lines and marks the rest', () => {
  expect(lineDiff('a\nb\nc', 'a\nc\nd')).toEqual([
    { op: ' ', text: 'a' },
    { op: '-', text: 'b' },
    { op: ' ', text: 'c' },
    { op: '+', text: 'd' },
  ]);
  expect(lineDiff('x\n'.repeat(3000), 'y\n'.repeat(3000))).toBeNull();
});
