import { Footer } from '../components/Footer';

export function GalleryPage() {
  return (
    <div className="page">
      <main className="container">
        <h1>GalleryPage</h1>
      </main>
      <Footer />
    </div>
  );
}
