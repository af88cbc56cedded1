export default function WallPage() {
  return <main className="wall">Wall</main>;
}
