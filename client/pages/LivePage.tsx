import { Footer } from '../components/Footer';

export function LivePage() {
  return (
    <div className="page">
      <main className="container">
        <h1>LivePage</h1>
      </main>
      <Footer />
    </div>
  );
}
