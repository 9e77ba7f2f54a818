export function App() {
  return <h1>fleetcap</h1>;
}
