import { Footer } from '../components/Footer';

export function HomePage() {
  return (
    <div className="page">
      <main className="container">
        <h1>HomePage</h1>
      </main>
      <Footer />
    </div>
  );
}
