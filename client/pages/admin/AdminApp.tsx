import { Redirect, Route, Switch } from 'wouter';
import { Footer } from '../../components/Footer';

/** Routes under /admin (nested: paths here are relative). */
export default function AdminApp() {
  return (
    <Switch>
      <Route path="/login">
        <div className="page">
          <main className="container">
            <h1>Admin Login</h1>
          </main>
          <Footer />
        </div>
      </Route>
      <Route>
        <Redirect to="~/" replace />
      </Route>
    </Switch>
  );
}
